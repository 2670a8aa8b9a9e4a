// The texts of apimachinery's runtime errors for an object the scheme cannot place:
// NewMissingKindErr and NewMissingVersionErr quote the data they were given (each caller knows
// which bytes that is: the file as read, or the decoded JSON), NewNotRegisteredErrForKind names
// the scheme (runtime.NewScheme takes its caller's file:line as the name).
export const missingKindText = (data: string): string => `Object 'Kind' is missing in '${data}'`;
export const missingVersionText = (data: string): string => `Object 'apiVersion' is missing in '${data}'`;
export const notRegisteredText = (kind: string, version: string, scheme: string): string =>
  `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(version)} in scheme ${JSON.stringify(scheme)}`;
