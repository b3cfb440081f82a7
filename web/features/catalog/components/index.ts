/**
 * What other features use of the catalog (catalog-activity's /catalog/{id}/changes, job history, …):
 * the item page frame, its header and tabs, and the small pieces that show an item anywhere.
 */
export { ConfigPage, CONFIG_NOT_FOUND_TEXT, type ConfigPageProps } from './config-page';
export { ConfigHeader, ConfigBreadcrumb, copiedIdText, type ConfigHeaderData } from './config-header';
export { ConfigTabs, configTabHref, type ConfigTabId } from './config-tabs';
export { ConfigLink, configHref, configName, type ConfigLinkProps } from './config-link';
export { ConfigIcon, configIconFor } from './config-icon';
export { ConfigHealthBadge, ConfigHealthDot, HEALTH_DOT_CLASSES, HEALTH_TEXT, healthOf } from './config-health';
export { KeyValueList, orderedPairs } from './config-tags';
export { useConfigDetail, useConfigParents } from '../api/config';
export { catalogKeys } from '../api/keys';
export { CONFIG_HEALTHS, type ConfigDetail, type ConfigHealth, type ConfigParent } from '../api/schema';
