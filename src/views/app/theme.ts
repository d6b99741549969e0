import { createSystem, defaultConfig } from '@chakra-ui/react';

/** The console's Chakra system (to be slimmed to the recipes in use for the bundle budget). */
export const system = createSystem(defaultConfig);
