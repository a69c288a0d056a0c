-- What a plan allows of the watch features: monitors and webhook endpoints a client may hold,
-- and events it may receive per UTC day (pull pages, the live stream and first webhook
-- attempts together). A new plan gets basic's numbers unless it names its own; plans that
-- existed before keep what the deployment allowed them (MAX_MONITORS_PER_CLIENT and
-- MAX_WEBHOOKS_PER_CLIENT, whose defaults were 100 and 20, stay a ceiling over every plan).
ALTER TABLE plans
  ADD COLUMN max_monitors   integer NOT NULL DEFAULT 10 CHECK (max_monitors >= 0),
  ADD COLUMN max_webhooks   integer NOT NULL DEFAULT 2 CHECK (max_webhooks >= 0),
  ADD COLUMN events_per_day integer NOT NULL DEFAULT 10000 CHECK (events_per_day >= 0);
UPDATE plans SET max_monitors = 100, max_webhooks = 20, events_per_day = 1000000 WHERE id <> 'basic';

-- Events handed to each client per UTC day, counted in the database so that every server
-- instance spends the same allowance (the pull feed, the streams and the webhook workers).
CREATE TABLE event_volume_daily (
  client_id  text NOT NULL,
  day        date NOT NULL,
  events     bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, day)
);

-- A delivery counts against the allowance once, when it is first let through; its retries and
-- replays do not. Deliveries written before limits existed count as spent.
ALTER TABLE webhook_deliveries ADD COLUMN counted boolean NOT NULL DEFAULT true;
ALTER TABLE webhook_deliveries ALTER COLUMN counted SET DEFAULT false;
