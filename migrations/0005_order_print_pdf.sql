ALTER TABLE `orders` ADD `pdf_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `pdf_ready_at` integer;