// `npm run bench`: the benchmarks of DESIGN.md §5. They measure the mail store (folder pages,
// search, SMTP ingest, websocket latency), which arrives with the mail store issue; until then
// there is nothing to measure and this says so rather than printing made-up numbers.
console.log('No benchmarks exist yet: they come with the mail store (DESIGN.md §5). See bench/RESULTS.md.');
