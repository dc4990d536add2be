ALTER TABLE `orders` ADD `cover_width_pt` real;--> statement-breakpoint
ALTER TABLE `orders` ADD `cover_height_pt` real;