export { formatBytes } from './bytes';
export { BROWSER_TIME_ZONE, formatAxisDate, formatDate, isEmptyDate, listTimeZones, toDate, wallClock, zoneOffsetMinutes } from './date';
export type { DateInput, TimeZoneOption } from './date';
export { formatDuration } from './duration';
export { formatLatency } from './latency';
export { formatRelative } from './relative';
export { formatGroupUptime, formatUptime } from './uptime';
