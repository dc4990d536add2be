CREATE TABLE `usage_counts` (
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`day` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`action`, `subject`, `day`)
);
--> statement-breakpoint
CREATE INDEX `usage_counts_day_idx` ON `usage_counts` (`day`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `browser_session_id` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `debug_key` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `error` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `client_hash` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `converted_at` integer;--> statement-breakpoint
CREATE INDEX `uploads_created_idx` ON `uploads` (`created_at`);--> statement-breakpoint
CREATE INDEX `uploads_book_idx` ON `uploads` (`book_id`);