CREATE TABLE `payment_sessions` (
	`session_id` text PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`pages_digest` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_sessions_order_idx` ON `payment_sessions` (`order_id`);--> statement-breakpoint
ALTER TABLE `checkouts` ADD `claim_token` text;--> statement-breakpoint
ALTER TABLE `checkouts` ADD `claimed_at` integer;--> statement-breakpoint
-- The current attempt's session of every order opened before sessions were recorded: its
-- confirmation must still be accepted. Earlier attempts' sessions were never kept.
INSERT INTO `payment_sessions` (`session_id`, `order_id`, `attempt`, `pages_digest`)
SELECT `payment_session_id`, `id`, `payment_attempt`, NULL FROM `orders` WHERE `payment_session_id` IS NOT NULL;
