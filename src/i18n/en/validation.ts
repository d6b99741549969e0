import type { validation as zh } from '../zh/validation';

export const validation: Record<keyof typeof zh, string> = {
  'validation.register.passwordTooShort': 'The password must be at least 8 characters long!',
  'validation.register.passwordMismatch': 'The two passwords do not match',
  'validation.turnstile.wait': 'Please retry in a few seconds, Turnstile is checking the user environment!',
  'validation.turnstile.waitEnglish': 'please retry in a few seconds, Turnstile is checking the user environment!',
  'validation.selfDelete.mismatch': 'Please enter your account name to confirm the deletion!',
  'validation.ratio.model': 'The model ratio is not a valid JSON string',
  'validation.ratio.group': 'The group ratio is not a valid JSON string',
  'validation.ratio.completion': 'The completion ratio is not a valid JSON string',
  'validation.channel.nameAndKeyRequired': 'Please fill in the channel name and channel key!',
  'validation.channel.modelsRequired': 'Please select at least one model!',
  'validation.channel.modelMappingInvalid': 'Model mapping must be valid JSON format!',
  'validation.channel.baseUrlInvalid': 'The base URL must be a web address starting with http:// or https://!',
  'validation.channel.weightInvalid': 'Weight must be a whole number of 0 or more!',
  'validation.token.nameRequired': 'Please fill in the token name!',
  'validation.token.expiryInvalid': 'Expiry time format error!',
  'validation.redemption.nameRequired': 'Please fill in the redemption code name!',
  'validation.topUp.codeRequired': 'Please enter a top-up code!',
  'validation.topUp.noLink': 'The super administrator has not set a top-up link!',
};
