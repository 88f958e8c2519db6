import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useLayoutEffect, type ReactNode } from "react";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router-dom";
import { queryClient } from "./api/queryClient";
import { hasCampaignFlag } from "./api/session";
import { SocketProvider } from "./api/SocketProvider";
import { useAuth } from "./auth/AuthContext";
import { AuthProvider } from "./auth/AuthProvider";
import { PastDueRoute, PermissionRoute, PlanRoute, PrivateRoute, PublicRoute } from "./auth/guards";
import { BrandIcons } from "./components/BrandIcons";
import { FullPageLoader } from "./components/FullPageLoader";
import { Toaster } from "./components/Toaster";
import { ThemeModeProvider } from "./layout/ThemeModeProvider";

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
const ServiceLevelsPage = lazy(() =>
  import("./pages/reports/ServiceLevelsPage").then((m) => ({ default: m.ServiceLevelsPage })),
);
const ForgetPasswordPage = lazy(() =>
  import("./pages/forgetpsw/ForgetPasswordPage").then((m) => ({ default: m.ForgetPasswordPage })),
);
const MailOutboxPage = lazy(() =>
  import("./pages/mail-outbox/MailOutboxPage").then((m) => ({ default: m.MailOutboxPage })),
);
const ChatsPage = lazy(() => import("./pages/chats/ChatsPage").then((m) => ({ default: m.ChatsPage })));
const HelpsPage = lazy(() => import("./pages/helps/HelpsPage").then((m) => ({ default: m.HelpsPage })));
const SignupPage = lazy(() => import("./pages/signup/SignupPage").then((m) => ({ default: m.SignupPage })));
const AnnouncementsPage = lazy(() =>
  import("./pages/announcements/AnnouncementsPage").then((m) => ({ default: m.AnnouncementsPage })),
);
const CampaignsPage = lazy(() =>
  import("./pages/campaigns/CampaignsPage").then((m) => ({ default: m.CampaignsPage })),
);
const CampaignsConfigPage = lazy(() =>
  import("./pages/campaigns/CampaignsConfigPage").then((m) => ({ default: m.CampaignsConfigPage })),
);
const CampaignReportPage = lazy(() =>
  import("./pages/campaigns/CampaignReportPage").then((m) => ({ default: m.CampaignReportPage })),
);
const ContactListsPage = lazy(() =>
  import("./pages/contact-lists/ContactListsPage").then((m) => ({ default: m.ContactListsPage })),
);
const ContactListItemsPage = lazy(() =>
  import("./pages/contact-lists/ContactListItemsPage").then((m) => ({ default: m.ContactListItemsPage })),
);
const FileListsPage = lazy(() =>
  import("./pages/files/FileListsPage").then((m) => ({ default: m.FileListsPage })),
);
const FinanceiroPage = lazy(() =>
  import("./pages/financeiro/FinanceiroPage").then((m) => ({ default: m.FinanceiroPage })),
);
const SubscriptionPage = lazy(() =>
  import("./pages/subscription/SubscriptionPage").then((m) => ({ default: m.SubscriptionPage })),
);
const MessagesApiPage = lazy(() =>
  import("./pages/messages-api/MessagesApiPage").then((m) => ({ default: m.MessagesApiPage })),
);
const PromptsPage = lazy(() =>
  import("./pages/prompts/PromptsPage").then((m) => ({ default: m.PromptsPage })),
);
const QueueIntegrationsPage = lazy(() =>
  import("./pages/queue-integration/QueueIntegrationsPage").then((m) => ({
    default: m.QueueIntegrationsPage,
  })),
);
/**
 * Writes the path of the page the app has drawn on `<html data-path>`. A navigation is a transition
 * (React Router 7): the address changes at once, while the old page stays on screen until the new one
 * (a lazy chunk, a redirect) is ready, so what is on screen is read here, not from the address bar.
 */
function useDrawnPath() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    document.documentElement.dataset.path = pathname;
  }, [pathname]);
}

function AppRoutes() {
  useDrawnPath();
  // Drawn again on every change of session, which writes or clears the flag before it sets the user.
  // While a reload asks who is logged in, the flag of the last answer stands.
  useAuth();
  const campaignPages = hasCampaignFlag();
  return (
    <Routes>
      <Route element={<PublicRoute />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
      </Route>
      <Route element={<PrivateRoute />}>
        <Route element={<AppLayout />}>
          {/* Billing, for admins: the pages a past-due company's admin still reaches. */}
          <Route element={<PermissionRoute permission="invoices:view" />}>
            <Route path="/financeiro" element={<FinanceiroPage />} />
            <Route path="/subscription" element={<SubscriptionPage />} />
          </Route>
          <Route element={<PastDueRoute />}>
            <Route element={<PermissionRoute permission="dashboard:view" />}>
              <Route path="/" element={<DashboardPage />} />
              <Route path="/reports" element={<ReportsPage />} />
              <Route path="/reports/service-levels" element={<ServiceLevelsPage />} />
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
            <Route path="/quick-messages" element={<QuickMessagesPage />} />
            <Route path="/todolist" element={<TodoListPage />} />
            <Route path="/mail-outbox" element={<MailOutboxPage />} />
            {/* A feature the company's plan lacks: the spec's toast, then / after a second. */}
            <Route element={<PlanRoute flag="useKanban" />}>
              <Route path="/kanban" element={<KanbanPage />} />
            </Route>
            <Route element={<PlanRoute flag="useSchedules" />}>
              <Route path="/schedules" element={<SchedulesPage />} />
            </Route>
            <Route element={<PermissionRoute permission="bots:manage" />}>
              <Route element={<PlanRoute flag="useOpenAi" />}>
                <Route path="/prompts" element={<PromptsPage />} />
              </Route>
              <Route element={<PlanRoute flag="useIntegrations" />}>
                <Route path="/queue-integration" element={<QueueIntegrationsPage />} />
              </Route>
            </Route>
            <Route element={<PermissionRoute permission="drawer-admin-items:view" />}>
              <Route element={<PlanRoute flag="useExternalApi" />}>
                <Route path="/messages-api" element={<MessagesApiPage />} />
              </Route>
              <Route path="/files" element={<FileListsPage />} />
            </Route>
            <Route element={<PlanRoute flag="useInternalChat" />}>
              <Route path="/chats/:id?" element={<ChatsPage />} />
            </Route>
            <Route path="/helps" element={<HelpsPage />} />
            {/* Super user only: the page itself tells anyone else and sends them to /. */}
            <Route path="/announcements" element={<AnnouncementsPage />} />
            {campaignPages && (
              <Route element={<PlanRoute flag="useCampaigns" />}>
                {/* The campaign group is the admins' (agent-workspace section 2, side menu). */}
                <Route element={<PermissionRoute permission="drawer-admin-items:view" />}>
                  <Route path="/campaigns" element={<CampaignsPage />} />
                  <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
                  <Route path="/campaigns-config" element={<CampaignsConfigPage />} />
                  <Route path="/contact-lists" element={<ContactListsPage />} />
                  <Route path="/contact-lists/:contactListId/contacts" element={<ContactListItemsPage />} />
                </Route>
              </Route>
            )}
          </Route>
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
      <BrandIcons />
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
