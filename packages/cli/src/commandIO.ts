/** What a command receives: its own arguments and where to write. */
export interface CommandIO {
  args: string[];
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}
