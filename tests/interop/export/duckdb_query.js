// SPDX-License-Identifier: GPL-2.0-only
// Runs SQL in DuckDB for check_parquet.py: argv[2] is the node_modules folder `scripts/deps
// duckdb` printed; stdin a JSON array of queries; stdout a JSON array, per query either
// {"rows": [[...], ...]} (every value as DuckDB's JSON conversion gives it: BIGINT as a string)
// or {"error": "..."}.
'use strict';
const path = require('path');
const duckdb = require(path.join(process.argv[2], '@duckdb', 'node-api'));

async function main() {
	const queries = JSON.parse(require('fs').readFileSync(0, 'utf8'));
	const db = await duckdb.DuckDBInstance.create(':memory:');
	const con = await db.connect();
	const out = [];
	for (const q of queries) {
		try {
			const r = await con.runAndReadAll(q);
			out.push({ rows: r.getRowsJson() });
		} catch (e) {
			out.push({ error: String(e.message || e) });
		}
	}
	process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
	process.stderr.write(`duckdb_query.js: ${e.stack || e}\n`);
	process.exit(1);
});
