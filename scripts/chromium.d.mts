export interface ChromiumLaunchOptions {
  executablePath: string;
  headless: boolean;
  args: string[];
}
export function chromiumLaunchOptions(): ChromiumLaunchOptions;
