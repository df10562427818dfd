export const THINKING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
/** How much the agent reasons before acting: OFF skips the thinking call; HIGH adds a self-critique. */
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];
