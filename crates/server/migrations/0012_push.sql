-- Web Push (issue 46): each browser's push subscription, and the server's
-- VAPID key, made once and shared by every process.

CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    -- The browser's keys, base64url as PushSubscription.toJSON() gives them.
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_account ON push_subscriptions (account);

-- Keys the server makes once: `vapid`, the VAPID private key (base64url).
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
