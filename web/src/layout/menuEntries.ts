import AccountTreeIcon from "@mui/icons-material/AccountTreeOutlined";
import AnnouncementIcon from "@mui/icons-material/AnnouncementOutlined";
import AssessmentIcon from "@mui/icons-material/AssessmentOutlined";
import AttachFileIcon from "@mui/icons-material/AttachFileOutlined";
import AttachMoneyIcon from "@mui/icons-material/AttachMoneyOutlined";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesomeOutlined";
import CampaignIcon from "@mui/icons-material/CampaignOutlined";
import ChecklistIcon from "@mui/icons-material/ChecklistOutlined";
import CodeIcon from "@mui/icons-material/CodeOutlined";
import ContactPhoneIcon from "@mui/icons-material/ContactPhoneOutlined";
import DashboardIcon from "@mui/icons-material/DashboardOutlined";
import DeviceHubIcon from "@mui/icons-material/DeviceHubOutlined";
import EventIcon from "@mui/icons-material/EventOutlined";
import FlashOnIcon from "@mui/icons-material/FlashOnOutlined";
import CreditCardIcon from "@mui/icons-material/CreditCardOutlined";
import ForumIcon from "@mui/icons-material/ForumOutlined";
import HelpIcon from "@mui/icons-material/HelpOutlineOutlined";
import ListAltIcon from "@mui/icons-material/ListAltOutlined";
import MailIcon from "@mui/icons-material/MailOutlined";
import LocalOfferIcon from "@mui/icons-material/LocalOfferOutlined";
import PeopleIcon from "@mui/icons-material/PeopleOutlined";
import PhoneIphoneIcon from "@mui/icons-material/PhoneIphone";
import SettingsIcon from "@mui/icons-material/SettingsOutlined";
import SyncAltIcon from "@mui/icons-material/SyncAltOutlined";
import TuneIcon from "@mui/icons-material/TuneOutlined";
import ViewKanbanIcon from "@mui/icons-material/ViewKanbanOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import type { SvgIcon } from "@mui/material";
import type { SessionUserDTO } from "@atende/contracts";
import { can } from "../auth/permissions";
import { planAllows } from "../auth/plan";
import type { Translation } from "../i18n/pt";

export interface MenuEntry {
  to: string;
  page: keyof Translation["pages"];
  icon: typeof SvgIcon;
}

export interface MenuGroup {
  heading: "attendance" | "management" | "campaigns" | "administration";
  entries: MenuEntry[];
}

const when = (condition: boolean, entry: MenuEntry): MenuEntry[] => (condition ? [entry] : []);

/**
 * The side menu of agent-workspace section 2: attendance for everyone, the rest for admins.
 * `campaigns`: the browser keeps the `cshow` flag, the one the campaign routes need. An entry of a
 * feature the company's plan lacks is not shown (its page sends a visitor away: PlanRoute).
 * `pastDue`: the company is locked out for being past due; its admin sees only the payment pages.
 */
export function menuGroups(
  user: SessionUserDTO,
  { campaigns, pastDue = false }: { campaigns: boolean; pastDue?: boolean },
): MenuGroup[] {
  if (pastDue) {
    return [
      {
        heading: "administration",
        entries: [
          { to: "/financeiro", page: "financeiro", icon: AttachMoneyIcon },
          { to: "/subscription", page: "subscription", icon: CreditCardIcon },
        ],
      },
    ];
  }
  const attendance: MenuGroup = {
    heading: "attendance",
    entries: [
      { to: "/tickets", page: "tickets", icon: WhatsAppIcon },
      { to: "/quick-messages", page: "quickMessages", icon: FlashOnIcon },
      ...when(planAllows(user, "useKanban"), { to: "/kanban", page: "kanban", icon: ViewKanbanIcon }),
      { to: "/todolist", page: "todolist", icon: ChecklistIcon },
      { to: "/contacts", page: "contacts", icon: ContactPhoneIcon },
      ...when(planAllows(user, "useSchedules"), { to: "/schedules", page: "schedules", icon: EventIcon }),
      { to: "/tags", page: "tags", icon: LocalOfferIcon },
      ...when(planAllows(user, "useInternalChat"), { to: "/chats", page: "chats", icon: ForumIcon }),
      { to: "/helps", page: "helps", icon: HelpIcon },
    ],
  };
  if (!can(user, "drawer-admin-items:view")) return [attendance];

  const groups: MenuGroup[] = [
    attendance,
    {
      heading: "management",
      entries: [
        { to: "/", page: "dashboard", icon: DashboardIcon },
        ...when(can(user, "dashboard:view"), { to: "/reports", page: "reports", icon: AssessmentIcon }),
      ],
    },
  ];
  if (campaigns && planAllows(user, "useCampaigns")) {
    groups.push({
      heading: "campaigns",
      entries: [
        { to: "/campaigns", page: "campaigns", icon: CampaignIcon },
        { to: "/contact-lists", page: "contactLists", icon: ListAltIcon },
        { to: "/campaigns-config", page: "campaignsConfig", icon: TuneIcon },
      ],
    });
  }
  groups.push({
    heading: "administration",
    entries: [
      ...when(user.super, { to: "/announcements", page: "announcements", icon: AnnouncementIcon }),
      ...when(planAllows(user, "useOpenAi"), { to: "/prompts", page: "prompts", icon: AutoAwesomeIcon }),
      ...when(planAllows(user, "useIntegrations"), {
        to: "/queue-integration",
        page: "queueIntegration",
        icon: DeviceHubIcon,
      }),
      { to: "/connections", page: "connections", icon: SyncAltIcon },
      ...when(can(user, "simulator:use"), { to: "/simulator", page: "simulator", icon: PhoneIphoneIcon }),
      { to: "/files", page: "files", icon: AttachFileIcon },
      { to: "/queues", page: "queues", icon: AccountTreeIcon },
      { to: "/users", page: "users", icon: PeopleIcon },
      ...when(planAllows(user, "useExternalApi"), {
        to: "/messages-api",
        page: "messagesApi",
        icon: CodeIcon,
      }),
      ...when(can(user, "invoices:view"), { to: "/financeiro", page: "financeiro", icon: AttachMoneyIcon }),
      { to: "/settings", page: "settings", icon: SettingsIcon },
      // The mails kept without SMTP_URL (development): they hold codes, so the super user's alone.
      ...when(user.super, { to: "/mail-outbox", page: "mailOutbox", icon: MailIcon }),
    ],
  });
  return groups;
}
