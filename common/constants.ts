/**
 * Business constants and limits of spec §9, typed so both the server and the console read the same
 * numbers. Anything the spec names as a default or an option list lives here, nowhere else.
 */

/** Stale time of shared lookups and cached sidebar views (spec §9: 5 minutes). */
export const LOOKUP_STALE_TIME_MS = 300_000;

/** Generic settings resource lists (spec §9: limit 100, ordered created_at desc). */
export const SETTINGS_LIST_LIMIT = 100;
export const SETTINGS_LIST_ORDER = { column: 'created_at', ascending: false } as const;

/** Page sizes of spec §9. */
export const PAGE_SIZES = [5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
/** Tables default to 50 rows per page, persisted locally. */
export const DEFAULT_PAGE_SIZE = 50;
/** The page sizes a shell table offers. */
export const SHELL_PAGE_SIZES = [50, 100, 200] as const;
export const JOB_HISTORY_PAGE_SIZE = 150;
export const VIEW_TABLE_PAGE_SIZE = 50;
export const CHECK_STATUS_HISTORY_PAGE_SIZE = 50;
export const NOTIFICATIONS_FETCH_LIMIT = 1000;
export const GRAPH_REQUEST_COUNT = 300;

/** Virtual rows (spec §9): estimated row height in px and rows rendered beyond the viewport. */
export const VIRTUAL_ROW_HEIGHT = 35;
export const VIRTUAL_OVERSCAN = 10;

/** Health page defaults (spec §9). */
export const HEALTH_DEFAULTS = {
  hidePassing: true,
  tabBy: 'namespace',
  groupBy: 'canary_name',
  layout: 'table',
  sortBy: 'name',
  sortDesc: false,
} as const;
export const HEALTH_GROUP_BY_OPTIONS = ['no-group', 'canary_name', 'name', 'description', 'type'] as const;
export const HEALTH_TAB_BY_OPTIONS = ['namespace', 'agent_id'] as const;

/** Debounces and thresholds (spec §9). */
export const SEARCH_DEBOUNCE_MS = 400;
export const RESOURCE_SEARCH_DEBOUNCE_MS = 300;
export const OPTION_LIST_WINDOW_THRESHOLD = 20;
export const MULTI_SELECT_SUMMARY_AT = 4;
/** The Health column hides last-run times older than 7 days. */
export const HEALTH_COLUMN_MAX_AGE_MS = 604_800_000;

/** Time range options of the health and check pages, with their length in minutes (spec §9). */
export const TIME_RANGE_MINUTES = {
  '15m': 15,
  '1h': 60,
  '2h': 120,
  '3h': 180,
  '6h': 360,
  '12h': 720,
  '1d': 1_440,
  '2d': 2_880,
  '3d': 4_320,
  '1w': 10_080,
  '2w': 20_160,
  '3w': 30_240,
  '1mo': 43_200,
  '2mo': 86_400,
  '3mo': 129_600,
  '6mo': 259_200,
  '1y': 518_400,
  '2y': 1_036_800,
  '3y': 1_555_200,
  '5y': 2_592_000,
} as const;
export type TimeRangeOption = keyof typeof TIME_RANGE_MINUTES;
export const TIME_RANGE_OPTIONS: readonly TimeRangeOption[] = [
  '15m', '1h', '2h', '3h', '6h', '12h', '1d', '2d', '3d', '1w', '2w', '3w', '1mo', '2mo', '3mo', '6mo', '1y', '2y', '3y', '5y',
];
export const DEFAULT_TIME_RANGE: TimeRangeOption = '1h';

/** Latency units switch to seconds at 1000 ms and to minutes at 60000 ms (spec §9). */
export const LATENCY_SECONDS_AT_MS = 1_000;
export const LATENCY_MINUTES_AT_MS = 60_000;

/** Link-to-incident dialog defaults. */
export const LINK_DIALOG_DEFAULTS = { severity: 'low', type: 'availability' } as const;
export const RELATED_CONFIGS_MAX_DEPTH = 10;
export const CHANGES_RECURSIVE_DEPTH = 5;

/** Schedule presets (spec §9), as cron-style '@every' expressions. */
export const SCHEDULE_PRESETS = {
  short: ['@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 2h', '@every 4h'],
  scraper: ['@every 15m', '@every 30m', '@hourly', '@every 2h', '@every 4h', '@daily'],
  medium: ['@every 5m', '@every 15m', '@every 30m', '@hourly', '@every 2h', '@every 4h', '@every 6h', '@every 8h'],
  default: [
    '@every 30s', '@every 1m', '@every 15m', '@every 5m', '@every 30m', '@hourly',
    '@every 2h', '@every 4h', '@every 6h', '@every 8h', '@daily', '@weekly',
  ],
} as const satisfies Record<string, readonly string[]>;
export const RESOURCE_SCHEDULE_OPTIONS = [
  '@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 6h', '@daily', '@weekly',
] as const;

export const GITOPS_DEFAULTS = { namespace: 'mission-control', interval: '30m' } as const;

/** Job history page defaults (spec §9). */
export const JOB_STATUSES = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_HISTORY_DEFAULTS = {
  timeRange: '2d',
  status: 'SUCCESS',
  refreshRate: 'None',
  pageIndex: 0,
  pageSize: JOB_HISTORY_PAGE_SIZE,
} as const;
/** Duration filter: 'none' or a minimum duration, with its length in milliseconds. */
export const JOB_DURATION_FILTERS = {
  none: 0,
  '15s': 15_000,
  '30s': 30_000,
  '1m': 60_000,
  '2m': 120_000,
  '3m': 180_000,
  '5m': 300_000,
  '10m': 600_000,
  '15m': 900_000,
} as const;
export type JobDurationFilter = keyof typeof JOB_DURATION_FILTERS;

/** Check history duration filter (spec §5). */
export const CHECK_DURATION_FILTERS = ['All', '100ms', '500ms', '1s', '5s', '10s', '30s'] as const;

export const TOKEN_EXPIRY_OPTIONS = ['never'] as const;

/** Time range picker (spec §9). */
export const RECENT_TIME_RANGES_KEPT = 5;
export const PAST_RELATIVE_RANGES = [
  '5m', '15m', '30m', '1h', '3h', '6h', '12h', '24h', '2d', '7d', '30d', '90d', '6M', '1y', '2y', '5y',
] as const;
export const FUTURE_INDEFINITELY = 'Indefinitely';
export const QUICK_RANGE_LABELS = [
  'Yesterday', 'Day before yesterday', 'This day last week', 'Previous week', 'Previous month', 'Previous year',
  'Today', 'Today so far', 'This week', 'This week so far', 'This month', 'This month so far', 'This year',
  'This year so far',
] as const;

/** Display preferences (spec §9). */
export const DATE_FORMATS = ['short', 'medium', 'full', 'timestamp'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DISPLAY_DEFAULTS = {
  dateFormat: 'timestamp',
  timeZone: 'Browser',
  cardWidth: 554,
  showDeleted: 'no',
} as const;
export const CARD_WIDTH = { min: 250, max: 768, step: 2 } as const;

export const TOAST_DURATION_MS = 5_000;
export const AUTH_MESSAGE_CLEAR_MS = 10_000;
export const SIDEBAR_COLLAPSE_BREAKPOINT_PX = 1_024;
export const MIN_LAYOUT_WIDTH_PX = 800;
export const GRAPH_TAB_HEIGHT_THRESHOLD_PX = 992;
export const DIALOG_WIDTH_BREAKPOINTS = [768, 1024, 1280, 1600] as const;
export const AVATAR_MAX_INITIALS = 2;
export const FRONTEND_VERSION = '1.4.50';

/** Progress bar thresholds (spec §4, §5). */
export const PROGRESS = { warnAbove: 75, dangerAbove: 90, hiddenBelow: 1, displayMin: 5, displayMax: 100 } as const;

/** The nil agent id: this instance's own rows (spec §3, §9). */
export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
