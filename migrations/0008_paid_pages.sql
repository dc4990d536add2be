CREATE TABLE `payment_problems` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer,
	`order_number` text NOT NULL,
	`session_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer,
	`currency` text,
	`detail` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`refunded_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_problems_session_idx` ON `payment_problems` (`session_id`);--> statement-breakpoint
CREATE INDEX `payment_problems_order_idx` ON `payment_problems` (`order_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `print_pages` text;