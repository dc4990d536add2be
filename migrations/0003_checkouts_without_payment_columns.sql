DROP INDEX `checkouts_payment_session_idx`;--> statement-breakpoint
ALTER TABLE `checkouts` DROP COLUMN `payment_session_id`;--> statement-breakpoint
ALTER TABLE `checkouts` DROP COLUMN `amount_total`;--> statement-breakpoint
ALTER TABLE `checkouts` DROP COLUMN `currency`;--> statement-breakpoint
ALTER TABLE `checkouts` DROP COLUMN `paid_at`;