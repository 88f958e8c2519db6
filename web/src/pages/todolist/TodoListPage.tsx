import AddIcon from "@mui/icons-material/Add";
import CloseIcon from "@mui/icons-material/Close";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import SaveIcon from "@mui/icons-material/Check";
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../auth/AuthContext";
import { formatDate, formatTime } from "../../i18n/format";
import {
  addTask,
  editTask,
  readTasks,
  removeTask,
  type TodoTask,
  todoStorageKey,
  writeTasks,
} from "./todoStore";

/** /todolist: the user's own tasks, kept in this browser; add, edit, delete, with creation and update times. */
export function TodoListPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const key = todoStorageKey(user.id);
  const [tasks, setTasks] = useState<TodoTask[]>(() => readTasks(key));
  const [text, setText] = useState("");
  const [editingId, setEditingId] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // Another tab of this browser changed the list.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === key) setTasks(readTasks(key));
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [key]);

  function update(next: TodoTask[]) {
    setTasks(next);
    writeTasks(key, next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    update(editingId ? editTask(tasks, editingId, text) : addTask(tasks, text));
    setText("");
    setEditingId(null);
  }

  function startEdit(task: TodoTask) {
    setEditingId(task.id);
    setText(task.text);
    input.current?.focus();
  }

  function cancelEdit() {
    setEditingId(null);
    setText("");
  }

  const stamp = (key: "todo.createdAt" | "todo.updatedAt", at: string) =>
    t(key, { date: formatDate(at), time: formatTime(at) });

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {t("todo.title")}
        <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
          ({tasks.length})
        </Typography>
      </Typography>
      <Stack
        component="form"
        direction="row"
        spacing={1.5}
        onSubmit={submit}
        sx={{ alignItems: "flex-start" }}
      >
        <TextField
          inputRef={input}
          size="small"
          fullWidth
          label={t("todo.newTask")}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape" && editingId) cancelEdit();
          }}
          autoComplete="off"
          helperText={t("todo.localOnly")}
        />
        <Button
          type="submit"
          variant="contained"
          startIcon={editingId ? <SaveIcon /> : <AddIcon />}
          sx={{ flexShrink: 0, height: 40 }}
        >
          {t(editingId ? "todo.save" : "todo.add")}
        </Button>
        {editingId && (
          <Tooltip title={t("todo.cancelEdit")}>
            <IconButton aria-label={t("todo.cancelEdit")} onClick={cancelEdit}>
              <CloseIcon />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflowY: "auto" }}>
        {tasks.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
            {t("todo.empty")}
          </Typography>
        ) : (
          <List aria-label={t("todo.title")}>
            {tasks.map((task) => (
              <ListItem
                key={task.id}
                divider
                secondaryAction={
                  <Stack direction="row" spacing={0.5}>
                    <IconButton
                      aria-label={`${t("todo.edit")}: ${task.text}`}
                      onClick={() => startEdit(task)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      aria-label={`${t("todo.delete")}: ${task.text}`}
                      onClick={() => {
                        update(removeTask(tasks, task.id));
                        if (editingId === task.id) cancelEdit();
                      }}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Stack>
                }
                sx={{ pr: 12, bgcolor: task.id === editingId ? "action.selected" : undefined }}
              >
                <ListItemText
                  primary={task.text}
                  secondary={
                    task.updatedAt !== task.createdAt
                      ? `${stamp("todo.createdAt", task.createdAt)} · ${stamp("todo.updatedAt", task.updatedAt)}`
                      : stamp("todo.createdAt", task.createdAt)
                  }
                  slotProps={{ primary: { sx: { whiteSpace: "pre-wrap", wordBreak: "break-word" } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
}
