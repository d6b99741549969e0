import type { rules as zh } from '../zh/rules';

/** Area 'rules' in English (see the zh file). */
export const rules: Record<keyof typeof zh, string> = {
  'rules.username.required': 'username is required',
  'rules.username.tooLong': 'username must be at most {max} characters',
  'rules.username.taken': 'username is already taken, please choose another',
  'rules.password.required': 'password is required',
  'rules.password.length': 'password must be {min} to {max} characters',
  'rules.displayName.tooLong': 'display name must be at most {max} characters',
  'rules.email.required': 'e-mail is required',
  'rules.verificationCode.required': 'verification code is required',
  'rules.email.tooLong': 'e-mail must be at most {max} characters',
  'rules.group.tooLong': 'group must be at most {max} characters',
  'rules.role.invalid': 'role must be common user, admin or root',
  'rules.status.invalid': 'status must be enabled, disabled or deleted',
  'rules.nul': '{field} must not contain NUL characters',
  'rules.field.username': 'username',
  'rules.field.password': 'password',
  'rules.field.displayName': 'display name',
  'rules.field.email': 'e-mail',
  'rules.field.group': 'group',
  'rules.field.affCode': 'invitation code',
  'rules.field.verificationCode': 'verification code',
  'rules.oauth.state': 'login check failed (state is empty or does not match): go back to the login page and start again',
  'rules.mail.failed': 'the e-mail could not be sent; try again later or contact the administrator (request id: {requestId})',
  'rules.turnstile.unavailable': 'the Turnstile check cannot be completed right now; try again later (request id: {requestId})',
  'rules.internal': 'internal server error, please try again later (request id: {requestId})',
};
