// Where `npm run dev` keeps its local D1, R2 and Queues: `.wrangler/state`, or DEV_STATE_DIR
// (scripts/dev-start-check.mjs starts each run from an empty one). package.json's
// db:migrate:local names the same default in shell syntax, as npm scripts cannot import this.
export const LOCAL_STATE_DIR = process.env.DEV_STATE_DIR || ".wrangler/state";
