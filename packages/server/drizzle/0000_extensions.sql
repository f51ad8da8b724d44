-- Trigram search for items, collections and profiles (drizzle-kit never writes CREATE EXTENSION).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
