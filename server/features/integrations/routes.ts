import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { CHART_NAME, loadChart, shippedChartNames, shippedChart } from './charts';

const read = { resource: 'integrations', action: 'read' } as const;

/** GET /api/integrations/charts and /api/integrations/charts/{name}: the GitOps wizard's charts (spec §2, §7). */
export function integrationRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, {
    method: 'GET',
    url: '/api/integrations/charts',
    summary: 'The Helm charts this console ships for the GitOps wizard: name, version and description of each',
    tags: ['integrations'],
    access: read,
    handler: async () => {
      const names = await shippedChartNames();
      const charts = await Promise.all(names.map((name) => shippedChart(name)));
      return charts.flatMap((chart) => (chart ? [{ ...chart.chart, name: chart.name }] : []));
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/integrations/charts/:name',
    summary:
      "One chart's Chart.yaml and values JSON schema: live from the registry named by the property integrations.chart_registry (5 s), else the shipped one (with a note when the registry failed)",
    tags: ['integrations'],
    access: read,
    params: z.object({ name: z.string().regex(CHART_NAME, 'must be a chart name: lowercase letters, digits and dashes') }),
    handler: async ({ params }) => {
      const { chart, problem } = await loadChart(ctx.pool, params.name);
      if (!chart) throw new AppError('not_found', problem ? `chart ${params.name} not found: ${problem}` : `chart ${params.name} not found`);
      return chart;
    },
  });
}
