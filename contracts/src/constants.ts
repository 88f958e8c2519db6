/** Business constants and limits from both spec documents (section 9), written once. */
export const LIMITS = {
  subscriptionWarningDays: 5,
  socketPingMs: 18_000,
  reloadAfterExpiredMs: 1_000,
  userStatusEveryMs: 5 * 60_000,
  offlineAfterMs: 5 * 60_000,
  searchDebounceMs: 500,
  contactSearchMinChars: 3,
  infiniteScrollThresholdPx: 100,
  olderMessagesThresholdPx: 50,
  connectionAlertDelayMs: 2_000,
  toastWorkspaceMs: 2_000,
  toastShellMs: 3_000,
  forwardPauseMs: 900,
  timeLabelRefreshMs: 30_000,
  drawerWidth: 240,
  contactDrawerWidth: 320,
  quickMessagePreviewChars: 35,
  inputMaxRows: 5,
  minAudioBytes: 10_000,
  /** Photos sent from the chat are re-encoded as JPEG at this quality (spec section 9: 0.7)... */
  imageCompressionQuality: 0.7,
  /** ...and resized to at most this many pixels on their long side. */
  imageMaxSidePx: 1920,
  userName: { min: 2, max: 50 },
  userPassword: { min: 5, max: 50 },
  contactName: { min: 2, max: 50 },
  contactNumber: { min: 8, max: 50 },
  pageSize: 20,
} as const;

export const PROFILES = ["admin", "supervisor", "user"] as const;
export type Profile = (typeof PROFILES)[number];

export const ALL_TICKET = ["enabled", "desabled"] as const;
export type AllTicket = (typeof ALL_TICKET)[number];

export const DEFAULT_TIMEZONE = "America/Sao_Paulo";

export const RECURRENCES = ["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"] as const;

export const PLAN_FLAGS = [
  "useCampaigns",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
  "useKanban",
  "useOpenAi",
  "useIntegrations",
  "useInternal",
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];

/** The settings every new company starts with (back-office spec, Setting keys). */
export const DEFAULT_COMPANY_SETTINGS: Record<string, string> = {
  userRating: "disabled",
  scheduleType: "disabled",
  call: "enabled",
  CheckMsgIsGroup: "enabled",
  sendGreetingAccepted: "disabled",
  sendMsgTransfTicket: "disabled",
  sendGreetingMessageOneQueues: "enabled",
  chatBotType: "text",
  notificationPreview: "enabled",
  historyImportDays: "3",
  campaignsEnabled: "true",
  timezone: "America/Sao_Paulo",
};

/** Platform-wide settings, kept on the platform company. */
export const DEFAULT_PLATFORM_SETTINGS: Record<string, string> = {
  allowregister: "disabled",
  viewregister: "disabled",
  trial: "3",
};
