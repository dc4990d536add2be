CREATE TABLE `local_print_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`external_id` text NOT NULL,
	`order_number` text NOT NULL,
	`status` text NOT NULL,
	`request` text NOT NULL,
	`tracking_id` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `local_print_jobs_external_id_unique` ON `local_print_jobs` (`external_id`);--> statement-breakpoint
ALTER TABLE `orders` ADD `print_partner` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `print_job_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `print_status` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `print_status_changed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `print_status_detail` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `print_attempt` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `print_claimed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `carrier` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `tracking_url` text;--> statement-breakpoint
CREATE INDEX `orders_print_job_idx` ON `orders` (`print_job_id`);