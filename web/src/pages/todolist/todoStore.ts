/** A task of the todo list, kept in this browser only (agent-workspace: Todo task). */
export interface TodoTask {
  id: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** One list per user of this browser. */
export const todoStorageKey = (userId: number) => `todolist:${userId}`;

function isTask(value: unknown): value is TodoTask {
  const v = value as Partial<TodoTask> | null;
  return (
    typeof v?.id === "string" &&
    typeof v.text === "string" &&
    typeof v.createdAt === "string" &&
    typeof v.updatedAt === "string"
  );
}

/** The stored tasks; anything unreadable is left out rather than breaking the page. */
export function readTasks(key: string): TodoTask[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? "[]") as unknown;
    return Array.isArray(parsed) ? parsed.filter(isTask) : [];
  } catch {
    return [];
  }
}

export function writeTasks(key: string, tasks: TodoTask[]): void {
  try {
    localStorage.setItem(key, JSON.stringify(tasks));
  } catch {
    // storage full or blocked: the list lives while the page does
  }
}

const newId = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A task added first; empty text is ignored. */
export function addTask(tasks: TodoTask[], text: string, now = new Date()): TodoTask[] {
  const clean = text.trim();
  if (!clean) return tasks;
  const at = now.toISOString();
  return [{ id: newId(), text: clean, createdAt: at, updatedAt: at }, ...tasks];
}

/** A task's new text, and its update time; empty text (or the same text) changes nothing. */
export function editTask(tasks: TodoTask[], id: string, text: string, now = new Date()): TodoTask[] {
  const clean = text.trim();
  if (!clean) return tasks;
  return tasks.map((task) =>
    task.id === id && task.text !== clean ? { ...task, text: clean, updatedAt: now.toISOString() } : task,
  );
}

export function removeTask(tasks: TodoTask[], id: string): TodoTask[] {
  return tasks.filter((task) => task.id !== id);
}
