/** The `watchkeeper token create` command's work, for tests of other features that make tokens as the CLI does. */
export { tokenCreate } from '../cli';
