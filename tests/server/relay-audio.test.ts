import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editUsage, editedText, speechAudio, startAudioUpstream, transcriptOf, type AudioUpstream } from './support/audioUpstream';
import {
  consumeLogs,
  countText,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  ledgerOf,
  sdkClient,
  sdkError,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  textQuota,
  type QuotaSnapshot,
} from './support/relayFixtures';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The audio and image-edit relays and /v1/edits (contract §4.5, §4.4) end to end: the official
 * openai SDK against the real server, a loopback fake of OpenAI's endpoints that checks the
 * multipart fields it receives, and the exact quota each answer moves (one consume log explaining
 * it) or, for a refused or failed request, that nothing moved.
 */

/** Ratios of this suite (exact in binary). The user is in group vip (ratio 2). */
const ratios = { 'tts-1': 7.5, 'whisper-1': 15, 'tts-az': 0.5, 'tts-native': 1, 'whisper-fail': 1, 'whisper-50': 1 };
const groupRatio = 2;

const audioFile = (name = 'hello.mp3'): File => new File([Buffer.from('ID3 not really audio, but bytes enough')], name, { type: 'audio/mpeg' });
const imageFile = (): File => new File([Buffer.from('\x89PNG fake image bytes')], 'cat.png', { type: 'image/png' });

/** Tokens of the fake's transcript billed at whisper-1's ratio and the group's: ceil(tokens × 15 × 2). */
const transcriptQuota = (model: string): number => Math.ceil(countText(transcriptOf(model), 'whisper-1') * ratios['whisper-1'] * groupRatio);

/** Sends a POST with the given headers and a first piece of body, never finishing it; resolves with the status and the time to it. */
function partialPost(url: string, headers: Record<string, string>, first: Buffer): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, ms: performance.now() - started });
      req.destroy();
    });
    req.on('error', reject);
    req.write(first);
  });
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`audio, image edits and edits relay — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: AudioUpstream;
    let userId = 0;
    let tokenId = 0;
    let key = '';
    const channels: Record<string, number> = {};
    const ledger = ledgerOf(db, () => ({ userId, tokenId }));
    const sdk = () => sdkClient(suite.api.url, key);
    const lastLog = async () => (await consumeLogs(db(), userId)).at(-1);

    beforeAll(async () => {
      upstream = await startAudioUpstream();
      await setRelayOptions(db(), { ModelRatio: JSON.stringify({ ...testModelRatio, ...ratios }) });
      userId = await createRelayUser(db(), { username: 'audiouser', quota: 10_000_000, group: 'vip' });
      ({ id: tokenId, key } = await createRelayToken(db(), { userId, name: 'audio', remainQuota: 5_000_000 }));
      const add = async (name: string, seed: Omit<Parameters<typeof createRelayChannel>[1], 'baseUrl'>) =>
        (channels[name] = await createRelayChannel(db(), { ...seed, baseUrl: upstream.url, group: 'vip' }));
      await add('custom', { key: 'up-custom', models: 'tts-1,whisper-1,dall-e-2,gpt-3.5-turbo', type: 8 });
      await add('mapped', { key: 'up-mapped', models: 'whisper-alias', type: 1, modelMapping: '{"whisper-alias":"whisper-1"}' });
      await add('azure', { key: 'up-azure', models: 'tts-az', type: 3, config: '{"api_version":"2024-06-01"}' });
      await add('native', { key: 'up-native', models: 'tts-native', type: 14 });
      await add('fail', { key: 'up-fail', models: 'whisper-fail', type: 1 });
      await add('fifty', { key: 'up-50', models: 'whisper-50', type: 50 });
      upstream.failWith('up-fail', 500);
    });
    afterAll(async () => {
      await upstream.close();
    });

    const charged = (before: QuotaSnapshot, quota: number, channel: string) => ledger.expectCharged(before, quota, channels[channel] ?? 0);
    const unchanged = (before: QuotaSnapshot, channel = 'custom') => ledger.expectUnchanged(before, channels[channel] ?? 0);

    it('speech: streams the audio back with its type; charges floor(input bytes × model × group ratio)', async () => {
      const input = 'Hello there, 世界 — read this aloud.';
      const before = await ledger.snapshot(channels.custom ?? 0);
      const answer = await sdk().audio.speech.create({ model: 'tts-1', voice: 'alloy', input });
      expect(answer.headers.get('content-type')).toBe('audio/mpeg');
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(speechAudio(input));
      const bytes = Buffer.byteLength(input);
      await charged(before, Math.floor(bytes * 7.5 * groupRatio), 'custom');
      expect(await lastLog()).toMatchObject({ modelName: 'tts-1', promptTokens: bytes, completionTokens: 0, content: '倍率：7.50 × 2.00' });
      const sent = upstream.requestsFor('up-custom').at(-1);
      expect(sent?.path).toBe('/v1/audio/speech');
      expect(sent?.json).toMatchObject({ model: 'tts-1', voice: 'alloy', input });
    });

    it('speech on Azure: /openai/deployments/<model>/audio/speech?api-version= with the api-key header', async () => {
      const before = await ledger.snapshot(channels.azure ?? 0);
      const answer = await sdk().audio.speech.create({ model: 'tts-az', voice: 'nova', input: 'Hi' });
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(speechAudio('Hi'));
      await charged(before, Math.floor(2 * 0.5 * groupRatio), 'azure');
      const sent = upstream.requestsFor('up-azure').at(-1);
      expect(sent?.path).toBe('/openai/deployments/tts-az/audio/speech');
      expect(sent?.query.get('api-version')).toBe('2024-06-01');
      expect(sent?.headers.authorization).toBeUndefined();
    });

    it('transcriptions (json, text, srt, verbose_json, vtt): the upstream body as it is; billed the transcript tokens × ratios', async () => {
      for (const format of ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const) {
        const before = await ledger.snapshot(channels.custom ?? 0);
        const answer: unknown = await sdk().audio.transcriptions.create({ file: audioFile(), model: 'whisper-1', response_format: format });
        const text = transcriptOf('whisper-1');
        if (format === 'json' || format === 'verbose_json') expect(answer, format).toMatchObject({ text });
        else expect(String(answer), format).toContain(text);
        await charged(before, transcriptQuota('whisper-1'), 'custom');
        expect(await lastLog(), format).toMatchObject({ modelName: 'whisper-1', completionTokens: countText(text, 'whisper-1'), content: '倍率：15.00 × 2.00' });
        const sent = upstream.requestsFor('up-custom').at(-1);
        expect(sent?.path).toBe('/v1/audio/transcriptions');
        expect(sent?.fields).toMatchObject({ model: 'whisper-1', response_format: format });
        expect(sent?.files.file).toMatchObject({ name: 'hello.mp3', type: 'audio/mpeg' });
        expect(sent?.files.file?.bytes.toString()).toBe('ID3 not really audio, but bytes enough');
      }
    });

    it('translations: the model mapping applies (the form goes upstream with the mapped model, which is billed)', async () => {
      const before = await ledger.snapshot(channels.mapped ?? 0);
      const answer = await sdk().audio.translations.create({ file: audioFile('speech.wav'), model: 'whisper-alias', prompt: 'context' });
      expect(answer.text).toBe(transcriptOf('whisper-1'));
      await charged(before, transcriptQuota('whisper-1'), 'mapped');
      expect(await lastLog()).toMatchObject({ modelName: 'whisper-1' });
      const sent = upstream.requestsFor('up-mapped').at(-1);
      expect(sent?.path).toBe('/v1/audio/translations');
      expect(sent?.fields).toMatchObject({ model: 'whisper-1', prompt: 'context' });
      expect(sent?.files.file?.name).toBe('speech.wav');
    });

    it('a transcription on a type-50 channel goes to <base>/audio/transcriptions', async () => {
      const before = await ledger.snapshot(channels.fifty ?? 0);
      await sdk().audio.transcriptions.create({ file: audioFile(), model: 'whisper-50' });
      await ledger.expectCharged(before, Math.ceil(countText(transcriptOf('whisper-50'), 'whisper-1') * groupRatio), channels.fifty ?? 0);
      expect(upstream.requestsFor('up-50').at(-1)?.path).toBe('/audio/transcriptions');
    });

    it('image edits: billed as image generations, trunc(model × group × size ratio × 1000) × n', async () => {
      const before = await ledger.snapshot(channels.custom ?? 0);
      const answer = await sdk().images.edit({ image: imageFile(), prompt: 'add a hat', model: 'dall-e-2', size: '512x512', n: 2 });
      expect(answer.data).toHaveLength(2);
      await charged(before, Math.trunc(8 * groupRatio * 1.125 * 1000) * 2, 'custom');
      expect(await lastLog()).toMatchObject({ modelName: 'dall-e-2', content: '倍率：8.00 × 2.00' });
      const sent = upstream.requestsFor('up-custom').at(-1);
      expect(sent?.path).toBe('/v1/images/edits');
      expect(sent?.fields).toMatchObject({ model: 'dall-e-2', prompt: 'add a hat', size: '512x512', n: '2' });
      expect(sent?.files.image?.name).toBe('cat.png');
    });

    it('/v1/edits: relayed to /v1/edits and billed as text from the usage', async () => {
      const before = await ledger.snapshot(channels.custom ?? 0);
      const res = await fetch(`${suite.api.url}/v1/edits`, {
        method: 'POST',
        headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-3.5-turbo', input: 'What day of the wek is it?', instruction: 'Fix the spelling mistakes' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ object: 'edit', choices: [{ text: editedText }] });
      await charged(before, textQuota('gpt-3.5-turbo', editUsage.prompt_tokens, editUsage.completion_tokens, groupRatio), 'custom');
      expect(await lastLog()).toMatchObject({ promptTokens: 25, completionTokens: 32, content: `倍率：1.50 × 2.00 × ${(testCompletionRatio['gpt-3.5-turbo'] ?? 1).toFixed(2)}` });
      expect(upstream.requestsFor('up-custom').at(-1)?.path).toBe('/v1/edits');
    });

    it('refuses without moving anything: missing file, image, model, input, instruction; input over 4096 bytes; unknown format', async () => {
      const before = await ledger.snapshot(channels.custom ?? 0);
      const requests = upstream.requests.length;
      const noFile = new FormData();
      noFile.append('model', 'whisper-1');
      const res = await fetch(`${suite.api.url}/v1/audio/transcriptions`, { method: 'POST', headers: { Authorization: `Bearer sk-${key}` }, body: noFile });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { message: expect.stringMatching(/^field file is required/), param: 'file' } });
      const noImage = new FormData();
      noImage.append('prompt', 'add a hat');
      const image = await fetch(`${suite.api.url}/v1/images/edits`, { method: 'POST', headers: { Authorization: `Bearer sk-${key}` }, body: noImage });
      expect(image.status).toBe(400);
      expect(await image.json()).toMatchObject({ error: { message: expect.stringMatching(/^field image is required/), param: 'image' } });
      const speech = async (body: unknown) => {
        const r = await fetch(`${suite.api.url}/v1/audio/speech`, { method: 'POST', headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as { error: { message: string; code?: unknown; param?: unknown } } };
      };
      expect(await speech({ voice: 'alloy', input: 'hi' })).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
      expect(await speech({ model: 'tts-1', voice: 'alloy' })).toMatchObject({ status: 400, body: { error: { param: 'input' } } });
      const long = await speech({ model: 'tts-1', voice: 'alloy', input: 'é'.repeat(2049) });
      expect(long).toMatchObject({ status: 400, body: { error: { code: 'text_too_long' } } });
      expect(long.body.error.message).toMatch(/^input is too long \(over 4096 characters\)/);
      const format = await sdkError(sdk().audio.transcriptions.create({ file: audioFile(), model: 'whisper-1', response_format: 'xml' as 'json' }));
      expect(format.status).toBe(400);
      const edits = await fetch(`${suite.api.url}/v1/edits`, { method: 'POST', headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ model: 'gpt-3.5-turbo', input: 'x' }) });
      expect(edits.status).toBe(400);
      expect(await edits.json()).toMatchObject({ error: { code: 'invalid_text_request', message: expect.stringMatching(/^field instruction is required/) } });
      expect(upstream.requests.length).toBe(requests);
      await unchanged(before);
    });

    it('a native-wire channel (Anthropic) answers 501 api_not_implemented without reserving', async () => {
      const before = await ledger.snapshot(channels.native ?? 0);
      const error = await sdkError(sdk().audio.speech.create({ model: 'tts-native', voice: 'alloy', input: 'hi' }));
      expect(error.status).toBe(501);
      expect(error.code).toBe('api_not_implemented');
      expect(upstream.requestsFor('up-native')).toHaveLength(0);
      await unchanged(before, 'native');
    });

    it('an upstream error refunds the reservation and passes the error on', async () => {
      const before = await ledger.snapshot(channels.fail ?? 0);
      const error = await sdkError(sdk().audio.transcriptions.create({ file: audioFile(), model: 'whisper-fail' }));
      expect(error.status).toBe(500);
      expect(error.message).toContain('The server had an error');
      expect(upstream.requestsFor('up-fail')).toHaveLength(1);
      await unchanged(before, 'fail');
    });

    it('a hostile multipart body is refused fast: declared over 32 MB, or more than 64 parts', async () => {
      const before = await ledger.snapshot(channels.custom ?? 0);
      const boundary = 'hostile-boundary';
      const huge = await partialPost(
        `${suite.api.url}/v1/audio/transcriptions`,
        { Authorization: `Bearer sk-${key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(40 * 1024 * 1024) },
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n`),
      );
      expect(huge.status).toBe(413);
      expect(huge.ms).toBeLessThan(2_000);
      const parts = Array.from({ length: 5_000 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('');
      const started = performance.now();
      const many = await fetch(`${suite.api.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: `${parts}--${boundary}--\r\n`,
      });
      expect(many.status).toBe(413);
      expect(await many.json()).toMatchObject({ error: { code: 'request_too_large' } });
      expect(performance.now() - started).toBeLessThan(2_000);
      const json = await fetch(`${suite.api.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' },
        body: '{"model":"whisper-1"}',
      });
      expect(json.status).toBe(415);
      await unchanged(before);
    });
  });
}
