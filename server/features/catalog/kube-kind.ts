import { KUBE_GROUP, kubeSpecRows, type KubeKind } from '../../platform/kube-kinds';
import { scrapeConfigKind } from './scraper-kind';
import { deleteScraper } from './scrapers';

/** ScrapeConfig as kubectl reads and writes it (docs/KUBECTL.md). */
export const scrapeConfigKubeKind: KubeKind = {
  kind: 'ScrapeConfig', group: KUBE_GROUP.configs, version: 'v1', plural: 'scrapeconfigs', singular: 'scrapeconfig', shortNames: ['scrapers'], namespaced: true, rows: kubeSpecRows('config_scrapers'), rbac: 'config_scrapers',
  resourceKind: scrapeConfigKind,
  remove: async (pool, id) => void (await deleteScraper(pool, id)),
};
