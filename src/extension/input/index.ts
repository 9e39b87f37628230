export { BACK } from './prompter';
export type { Answer, PickItem, Prompter } from './prompter';
export { askEach, runSteps, settle, type Step, type StepPosition, type StepResult } from './steps';
export { PrompterSlot } from './prompterSlot';
export { createPrompterSlot } from './register';
