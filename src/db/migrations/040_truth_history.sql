-- The demo world's hidden truth of its past (evaluation only, never read by the API): for each
-- company whose past was visited (seed/history.ts), each period of a product's use inside the
-- visited window (a product used twice, or implied by two products in turn, has a row per
-- period): from when (NULL: since before the first visit: no adoption to see) until when (NULL:
-- still in use: no drop), and whether the product left a public trace a crawler could see. The
-- adoptions and drops events are measured against, and the true monthly adoption counts, come
-- from it (`stacklens eval changes`).
CREATE TABLE truth_history (
  company_id  text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  product_id  text NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  -- The product's periods of use inside the window, numbered from 0 in time order.
  period      smallint NOT NULL,
  in_use_from  timestamptz,
  in_use_until timestamptz,
  detectable  boolean NOT NULL,
  visible     boolean NOT NULL,
  PRIMARY KEY (company_id, product_id, period)
);
