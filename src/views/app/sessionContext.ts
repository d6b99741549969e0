import { createActorContext } from '@xstate/react';
import { sessionMachine } from '../../machines/session/session.machine';
import { preferencesMachine } from '../../machines/preferences/preferences.machine';

/**
 * The app-lifetime actors (conventions §4). The composition root passes the provided machine
 * as `logic` with its input; stories pass a stub-provided machine and a seeded snapshot.
 */
export const SessionContext = createActorContext(sessionMachine);
export const PreferencesContext = createActorContext(preferencesMachine);
