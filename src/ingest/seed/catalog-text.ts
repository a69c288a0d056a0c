// Feature vocabulary of the demo catalog, per top-level category plus generic platform
// features, so feature lists read like real product sheets.

const f = (s: string) => s.split(';').map((x) => x.trim());

export const FEATURES: Record<string, string[]> = {
  Sales: f(
    'Pipeline management; Lead scoring; Sales forecasting; Email tracking; Territory management; Deal rooms; Activity capture; Quote generation; Call recording; Opportunity management',
  ),
  Marketing: f(
    'Campaign builder; A/B testing; Audience segmentation; Landing pages; Attribution reports; Drag-and-drop editor; Personalization; Conversion tracking; Journey orchestration; Form builder',
  ),
  'Customer Service': f(
    'Ticket routing; SLA tracking; Omnichannel inbox; Canned responses; CSAT surveys; Self-service portal; Macros; Chat widgets; Escalation rules; Agent workspace',
  ),
  Collaboration: f(
    'Real-time co-editing; Shared calendars; Screen sharing; Threaded messages; Guest access; Version history; Meeting recordings; Kanban boards; Gantt charts; Mobile notifications',
  ),
  'IT Infrastructure': f(
    'Auto-scaling; Load balancing; Managed backups; Global edge network; Snapshots; Private networking; Infrastructure as code; 99.99% uptime SLA; DDoS protection; Multi-region replication',
  ),
  'IT Management': f(
    'Asset discovery; Patch management; Remote control; Incident management; Alerting; Service catalog; Change management; Custom dashboards; Anomaly detection; On-call scheduling',
  ),
  Security: f(
    'Threat detection; Zero trust access; Behavioral analytics; Policy enforcement; Incident response; Device posture checks; Phishing protection; Compliance reports; Encryption at rest; Risk scoring',
  ),
  Development: f(
    'Pull requests; Code review; Build pipelines; Release management; Branch protection; Secrets management; Test reports; Feature toggles; Stack traces; SDKs for major languages',
  ),
  'Data & Analytics': f(
    'Data connectors; Visual query builder; Scheduled reports; Semantic layer; Row-level security; Data lineage; Embedded dashboards; Natural-language queries; Data modeling; Alerts on metrics',
  ),
  Finance: f(
    'Bank feeds; Multi-currency; Approval workflows; Receipt capture; Revenue recognition; Budgeting; Tax calculation; Audit trail; Vendor payments; Financial reporting',
  ),
  HR: f(
    'Employee self-service; Onboarding workflows; Org charts; Time-off tracking; Payroll runs; Job postings; Interview scheduling; Goal setting; Pulse surveys; Compliance tracking',
  ),
  'E-Commerce': f(
    'Product catalog; Checkout; Inventory sync; Promotions; Abandoned-cart recovery; Multi-storefront; Fraud screening; Shipping labels; Order management; Marketplace integrations',
  ),
  Operations: f(
    'Demand planning; Route optimization; Barcode scanning; Work orders; Supplier portal; Purchase orders; Preventive maintenance; Lot tracking; Dispatch board; Mobile field app',
  ),
  'Governance, Risk & Compliance': f(
    'Policy management; Risk register; Control testing; Evidence collection; Contract repository; Clause library; Data subject requests; Vendor risk assessments; Audit management; Case management',
  ),
  'Industry Solutions': f(
    'Industry compliance templates; Scheduling; Client portal; Billing; Document management; Mobile access; Regulatory reporting; Analytics dashboards; Integrations marketplace; Configurable workflows',
  ),
};

export const GENERIC_FEATURES = f(
  'Single sign-on; Role-based access control; REST API; Audit log; Mobile app; Custom fields; Workflow automation; Webhooks; Data export; 24/7 support; SOC 2 Type II; GDPR tools',
);
