CREATE TABLE `books` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`title` text NOT NULL,
	`personal_message` text,
	`book_type` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`total_pages` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `books_session_idx` ON `books` (`session_id`);--> statement-breakpoint
CREATE TABLE `checkouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`book_type` text NOT NULL,
	`title` text NOT NULL,
	`custom_message` text,
	`quantity` integer DEFAULT 1 NOT NULL,
	`nr_photos` integer NOT NULL,
	`newsletter_signup` integer DEFAULT false NOT NULL,
	`agree_to_terms` integer DEFAULT false NOT NULL,
	`payment_session_id` text,
	`status` text DEFAULT 'open' NOT NULL,
	`amount_total` integer,
	`currency` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`paid_at` integer
);
--> statement-breakpoint
CREATE INDEX `checkouts_session_idx` ON `checkouts` (`session_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `checkouts_payment_session_idx` ON `checkouts` (`payment_session_id`);--> statement-breakpoint
CREATE TABLE `images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`book_id` integer NOT NULL,
	`original_filename` text NOT NULL,
	`original_key` text NOT NULL,
	`sketch_key` text,
	`is_selected` integer DEFAULT false NOT NULL,
	`processing_status` text DEFAULT 'pending' NOT NULL,
	`quality_score` integer,
	`file_size` integer NOT NULL,
	`mime_type` text NOT NULL,
	`width` integer,
	`height` integer,
	`error` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `images_book_idx` ON `images` (`book_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `images_original_key_idx` ON `images` (`original_key`);--> statement-breakpoint
CREATE INDEX `images_sketch_key_idx` ON `images` (`sketch_key`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`book_id` integer NOT NULL,
	`quote_id` text,
	`order_number` text NOT NULL,
	`customer_info` text NOT NULL,
	`pricing` text NOT NULL,
	`payment_status` text DEFAULT 'pending' NOT NULL,
	`order_status` text DEFAULT 'placed' NOT NULL,
	`payment_method` text,
	`estimated_delivery` text,
	`payment_session_id` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_order_number_idx` ON `orders` (`order_number`);--> statement-breakpoint
CREATE INDEX `orders_book_idx` ON `orders` (`book_id`);--> statement-breakpoint
CREATE TABLE `quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` integer NOT NULL,
	`country` text NOT NULL,
	`zip_code` text NOT NULL,
	`pricing` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quotes_book_idx` ON `quotes` (`book_id`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`book_type` text,
	`filename` text,
	`size` integer,
	`mime_type` text,
	`sketch_key` text,
	`status` text DEFAULT 'ticketed' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_session_idx` ON `uploads` (`session_id`);