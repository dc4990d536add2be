CREATE TABLE `order_emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text_body` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text,
	`provider_message_id` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_emails_order_kind_idx` ON `order_emails` (`order_id`,`kind`);--> statement-breakpoint
CREATE INDEX `order_emails_status_idx` ON `order_emails` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `books` ADD `detail_level` text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `detail_level` text;--> statement-breakpoint
ALTER TABLE `images` ADD `process_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `sent_to_print_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipped_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `tracking_number` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `refunded_at` integer;