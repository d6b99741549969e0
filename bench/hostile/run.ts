/**
 * `npm run bench:hostile`: the attacks of tests/server/hostile-clients.test.ts, with figures
 * instead of assertions. For each attack it prints the worst event-loop delay the gateway
 * measured in itself, the worst latency of a probe calling `/api/status` and a small relay
 * request meanwhile, and the gateway's RSS before, at its peak and after.
 *
 * BENCH_GATEWAY_CHECKOUT=<dir> runs the gateway of another checkout (with its node_modules) under
 * the same attacks, for before/after figures. A gateway whose event loop stays blocked is
 * reported with a delay of at least the 20 s the harness waits for its report.
 */
import {
  deepJsonAttack,
  describeFigures,
  longPromptAttack,
  measureAttack,
  stalledStreamAttack,
  startFloodUpstream,
  startHostileGateway,
  type AttackFigures,
} from '../../tests/server/support/hostile';

const checkout = process.env.BENCH_GATEWAY_CHECKOUT;

async function main(): Promise<void> {
  const upstream = await startFloodUpstream();
  const gateway = await startHostileGateway(upstream.url, checkout);
  console.log(`gateway: ${checkout ?? 'this checkout'} (pid ${gateway.child.pid})`);
  const figures: AttackFigures[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      await fetch(`${gateway.url}/api/status`);
      await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer sk-${gateway.richKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: i % 2 === 0 ? 'gpt-3.5-turbo' : 'gpt-4o', messages: [{ role: 'user', content: 'warm up '.repeat(i === 0 ? 1 : 3000) }] }),
      });
    }
    const quiet = await measureAttack(gateway, 'no attack (2 s)', () => new Promise((resolve) => setTimeout(() => resolve({ answers: [], bodies: [] }), 2000)));
    figures.push(quiet);
    console.log(describeFigures(quiet));
    for (const [name, attack] of [
      ['deep JSON', deepJsonAttack(gateway)],
      ['long prompts', longPromptAttack(gateway)],
      ['stalled streams', stalledStreamAttack(gateway)],
    ] as const) {
      const f = await measureAttack(gateway, name, attack);
      figures.push(f);
      console.log(describeFigures(f));
    }
  } finally {
    await gateway.stop();
    await upstream.close();
  }
  console.log('\n| attack | event loop worst (ms) | probe worst /api/status (ms) | probe worst relay (ms) | RSS before → peak → after (MB) |');
  console.log('|---|---|---|---|---|');
  for (const f of figures) {
    console.log(
      `| ${f.name} | ${f.loopMaxMs.toFixed(0)} | ${f.probe.statusWorstMs.toFixed(0)} | ${f.probe.relayWorstMs.toFixed(0)} | ${f.rssBeforeMb.toFixed(0)} → ${f.rssPeakMb.toFixed(0)} → ${f.rssAfterMb.toFixed(0)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
