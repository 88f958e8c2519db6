import type { AllTicket, PlanFlag, Profile } from "./constants.js";

/** The one output shape of each entity, used by HTTP answers and socket events alike. */
export interface QueueDTO {
  id: number;
  name: string;
  color: string;
}

export interface PlanDTO extends Record<PlanFlag, boolean> {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

export interface SettingDTO {
  key: string;
  value: string;
}

export interface UserDTO {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  companyId: number;
  super: boolean;
  online: boolean;
  allTicket: AllTicket;
  whatsappId: number | null;
  queues: QueueDTO[];
  createdAt: string;
  updatedAt: string;
}

export interface SessionCompanyDTO {
  id: number;
  name: string;
  dueDate: string | null;
  settings: SettingDTO[];
  plan: PlanDTO | null;
}

/** The user as login, refresh and /auth/me answer it. */
export interface SessionUserDTO extends UserDTO {
  company: SessionCompanyDTO;
}

export interface SubscriptionStatus {
  dueDate: string | null;
  /** Whole days from today (in the company's time zone) to the due date; null when none. */
  daysLeft: number | null;
  /** True when fewer than LIMITS.subscriptionWarningDays remain. */
  expiresSoon: boolean;
}

export interface LoginAnswer {
  token: string;
  user: SessionUserDTO;
  subscription: SubscriptionStatus;
}

export interface PageAnswer {
  count: number;
  hasMore: boolean;
}

export interface UsersPage extends PageAnswer {
  users: UserDTO[];
}
