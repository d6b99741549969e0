import { loadTurnstile } from '../api/actors/turnstile';
import type { turnstileMachine } from '../machines/turnstile';
import { implement, implementArea } from '../views/app/machineRegistry';

/** The Turnstile check of the sign-up and reset pages and of the e-mail binding (settings). */
export const wire = () => implementArea('turnstile', [implement<typeof turnstileMachine>('turnstile', { actors: { loadTurnstile } })]);
