/** Spec §5: an empty required field reads this, after the field is touched. */
export const REQUIRED = 'This field is required';
