// The dashboard (Settings, MCP, Completion webhooks): a static client of the publish API, served by the service.
export { DASHBOARD_POLICY, dashboardHandler, isDashboardPath } from './dashboard-files.ts';
export { DASHBOARD_ROOT, WEBHOOKS_PAGE_PATH } from './dashboard-page.ts';
