// Whether a path the shells were given is a folder, for their argument checks: the same test
// (links followed, anything unreadable is "no") as the operations they then call use.
export { isDirectory } from '../../drivers/workorders/files';
