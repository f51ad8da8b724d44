-- Signed listings name the highest platform fee their seller accepts (EIP-712 `maxFeeBps`, contracts issue 50).
-- Orders stored before it were signed without it: they verify on no market that checks it, whatever it holds.
ALTER TABLE "signed_listings" ADD COLUMN "max_fee_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signed_listings" ALTER COLUMN "max_fee_bps" DROP DEFAULT;
