import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, type ReactNode } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { queryClient } from "./api/queryClient";
import { hasCampaignFlag } from "./api/session";
import { SocketProvider } from "./api/SocketProvider";
import { useAuth } from "./auth/AuthContext";
import { AuthProvider } from "./auth/AuthProvider";
import { PermissionRoute, PrivateRoute, PublicRoute } from "./auth/guards";
import { FullPageLoader } from "./components/FullPageLoader";
import { Toaster } from "./components/Toaster";
import { ThemeModeProvider } from "./layout/ThemeModeProvider";
import type { PageKey } from "./pages/coming-soon/ComingSoonPage";

const AppLayout = lazy(() => import("./layout/AppLayout").then((m) => ({ default: m.AppLayout })));
const LoginPage = lazy(() => import("./pages/login/LoginPage").then((m) => ({ default: m.LoginPage })));
const UsersPage = lazy(() => import("./pages/users/UsersPage").then((m) => ({ default: m.UsersPage })));
const ConnectionsPage = lazy(() =>
  import("./pages/connections/ConnectionsPage").then((m) => ({ default: m.ConnectionsPage })),
);
const SimulatorPage = lazy(() =>
  import("./pages/simulator/SimulatorPage").then((m) => ({ default: m.SimulatorPage })),
);
const TicketsPage = lazy(() =>
  import("./pages/tickets/TicketsPage").then((m) => ({ default: m.TicketsPage })),
);
const ContactsPage = lazy(() =>
  import("./pages/contacts/ContactsPage").then((m) => ({ default: m.ContactsPage })),
);
const TagsPage = lazy(() => import("./pages/tags/TagsPage").then((m) => ({ default: m.TagsPage })));
const KanbanPage = lazy(() => import("./pages/kanban/KanbanPage").then((m) => ({ default: m.KanbanPage })));
const QuickMessagesPage = lazy(() =>
  import("./pages/quick-messages/QuickMessagesPage").then((m) => ({ default: m.QuickMessagesPage })),
);
const SchedulesPage = lazy(() =>
  import("./pages/schedules/SchedulesPage").then((m) => ({ default: m.SchedulesPage })),
);
const TodoListPage = lazy(() =>
  import("./pages/todolist/TodoListPage").then((m) => ({ default: m.TodoListPage })),
);
const QueuesPage = lazy(() => import("./pages/queues/QueuesPage").then((m) => ({ default: m.QueuesPage })));
const SettingsPage = lazy(() =>
  import("./pages/settings/SettingsPage").then((m) => ({ default: m.SettingsPage })),
);
const DashboardPage = lazy(() =>
  import("./pages/dashboard/DashboardPage").then((m) => ({ default: m.DashboardPage })),
);
const ReportsPage = lazy(() =>
  import("./pages/reports/ReportsPage").then((m) => ({ default: m.ReportsPage })),
);
const AnnouncementsPage = lazy(() =>
  import("./pages/announcements/AnnouncementsPage").then((m) => ({ default: m.AnnouncementsPage })),
);
const ComingSoonPage = lazy(() =>
  import("./pages/coming-soon/ComingSoonPage").then((m) => ({ default: m.ComingSoonPage })),
);

/** Private pages that later work fills in; until then each shows its title and "coming soon". */
const UPCOMING_PAGES: [path: string, title: PageKey][] = [
  ["/helps", "helps"],
  ["/files", "files"],
  ["/prompts", "prompts"],
  ["/queue-integration", "queueIntegration"],
  ["/messages-api", "messagesApi"],
  ["/financeiro", "financeiro"],
  ["/subscription", "subscription"],
  ["/chats/:id?", "chats"],
];

/** Shown only while the browser keeps the `cshow` flag. */
const CAMPAIGN_PAGES: [path: string, title: PageKey][] = [
  ["/contact-lists", "contactLists"],
  ["/contact-lists/:contactListId/contacts", "contactListItems"],
  ["/campaigns", "campaigns"],
  ["/campaign/:campaignId/report", "campaignReport"],
  ["/campaigns-config", "campaignsConfig"],
];

function upcoming([path, title]: [string, PageKey]) {
  return <Route key={path} path={path} element={<ComingSoonPage key={path} title={title} />} />;
}

function AppRoutes() {
  // Drawn again on every change of session, which writes or clears the flag before it sets the user.
  // While a reload asks who is logged in, the flag of the last answer stands.
  useAuth();
  const campaignPages = hasCampaignFlag();
  return (
    <Routes>
      <Route element={<PublicRoute />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<ComingSoonPage title="signup" standalone />} />
        <Route path="/forgetpsw" element={<ComingSoonPage title="forgetPassword" standalone />} />
      </Route>
      <Route element={<PrivateRoute />}>
        <Route element={<AppLayout />}>
          <Route element={<PermissionRoute permission="dashboard:view" />}>
            <Route path="/" element={<DashboardPage />} />
            <Route path="/reports" element={<ReportsPage />} />
          </Route>
          <Route element={<PermissionRoute permission="users-page:manage" />}>
            <Route path="/users" element={<UsersPage />} />
          </Route>
          <Route element={<PermissionRoute permission="drawer-admin-items:view" />}>
            <Route path="/connections" element={<ConnectionsPage />} />
          </Route>
          <Route element={<PermissionRoute permission="queues-page:manage" />}>
            <Route path="/queues" element={<QueuesPage />} />
          </Route>
          <Route element={<PermissionRoute permission="settings:edit" />}>
            <Route path="/settings" element={<SettingsPage />} />
          </Route>
          <Route element={<PermissionRoute permission="simulator:use" />}>
            <Route path="/simulator" element={<SimulatorPage />} />
          </Route>
          <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
          <Route path="/contacts" element={<ContactsPage />} />
          <Route path="/tags" element={<TagsPage />} />
          {/* The useKanban plan flag is checked by the page itself (toast, then back to /). */}
          <Route path="/kanban" element={<KanbanPage />} />
          <Route path="/quick-messages" element={<QuickMessagesPage />} />
          {/* The useSchedules plan flag is checked by the page itself (toast, then back to /). */}
          <Route path="/schedules" element={<SchedulesPage />} />
          <Route path="/todolist" element={<TodoListPage />} />
          {/* Super user only: the page itself tells anyone else and sends them to /. */}
          <Route path="/announcements" element={<AnnouncementsPage />} />
          {UPCOMING_PAGES.map(upcoming)}
          {campaignPages && CAMPAIGN_PAGES.map(upcoming)}
        </Route>
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

/** The socket follows the session: opened for the logged-in user, closed on logout. */
function LiveChannel({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  return (
    <SocketProvider companyId={user?.companyId ?? null} userId={user?.id ?? null}>
      {children}
    </SocketProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        <Toaster>
          <BrowserRouter>
            <AuthProvider>
              <LiveChannel>
                <Suspense fallback={<FullPageLoader />}>
                  <AppRoutes />
                </Suspense>
              </LiveChannel>
            </AuthProvider>
          </BrowserRouter>
        </Toaster>
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
