// The words of storage.Preconditions.Check, which some REST storages (the namespace REST's Delete)
// also use for their own checks, and the StorageError text a failed storage check reaches the client
// in: InterpretUpdateError turns storage's ErrCodeInvalidObj into a Conflict quoting
// StorageError.Error(), whose ResourceVersion is NewInvalidObjError's 0.

export const uidPreconditionFailed = (inPrecondition: string, inObject: string): string =>
  `Precondition failed: UID in precondition: ${inPrecondition}, UID in object meta: ${inObject}`;

export const resourceVersionPreconditionFailed = (inPrecondition: string, inObject: string): string =>
  `Precondition failed: ResourceVersion in precondition: ${inPrecondition}, ResourceVersion in object meta: ${inObject}`;

const ERR_CODE_INVALID_OBJ = 4;

/** storage.NewInvalidObjError(key, message).Error(). */
export const invalidObjErrorText = (key: string, message: string): string =>
  `StorageError: invalid object, Code: ${ERR_CODE_INVALID_OBJ}, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${message}`;
