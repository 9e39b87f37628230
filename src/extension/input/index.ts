export { BACK } from './prompter';
export type {
  Answer,
  ConfirmRequest,
  InputTextRequest,
  PickItem,
  PickManyRequest,
  PickOneRequest,
  Prompter,
  StepInfo,
} from './prompter';
export { askEach, runSteps, settle, type Step, type StepPosition, type StepResult } from './steps';
export { PrompterSlot } from './prompterSlot';
export { VscodePrompter } from './vscodePrompter';
export { createPrompterSlot } from './register';
