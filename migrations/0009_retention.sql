CREATE TABLE `sweep_cursors` (
	`prefix` text PRIMARY KEY NOT NULL,
	`start_after` text,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `books` ADD `files_deleted_at` integer;