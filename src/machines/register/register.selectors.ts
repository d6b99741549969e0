import type { SnapshotFrom } from 'xstate';
import type { FieldErrors, RegistrationField } from '../../domain/accountRules';
import type { registerMachine } from './register.machine';

type Snapshot = SnapshotFrom<typeof registerMachine>;

/** The registration request is on its way (the submit button shows progress). */
export const selectIsSubmitting = (s: Snapshot): boolean => s.matches('submitting');
/** Registered: the shell is moving to /login; the form stays disabled. */
export const selectIsRegistered = (s: Snapshot): boolean => s.matches('registered');
/** The e-mail code request is on its way. */
export const selectIsSendingCode = (s: Snapshot): boolean => s.context.sender.phase === 'sending';
/** Seconds until "send code" works again (0 when it does). */
export const selectCodeSecondsLeft = (s: Snapshot): number => s.context.sender.secondsLeft;
/** "Send code" may be pressed (neither sending nor cooling down). */
export const selectCanSendCode = (s: Snapshot): boolean => s.context.sender.phase === 'ready';
export const selectEmailVerification = (s: Snapshot): boolean => s.context.emailVerification;
export const selectAffCode = (s: Snapshot): string => s.context.affCode;
/** status.turnstile_check, as the session last reported it: the bot check is shown. */
export const selectTurnstileEnabled = (s: Snapshot): boolean => s.context.turnstileEnabled;
/** Each field's broken rule from the last submit (empty: none). */
export const selectFieldErrors = (s: Snapshot): FieldErrors<RegistrationField> => s.context.fieldErrors;
