/**
 * The one registry of error codes (SPEC §8 plus ours). Each code has its HTTP status and the
 * English message the server puts in `error.message`; the web client translates by `i8s`
 * (the code itself) and falls back to the message.
 */
export const errorCatalogue = {
  // SPEC §8, codes with known English text
  alias_max_count_paying: [400, 'You have an unpaid alias!'],
  error_alias_status_paying: [400, 'You have an unpaid invoice!'],
  error_domain_status_paying: [400, 'You have an unpaid invoice!'],
  pay_invoice: [402, "Pay the invoice in the provider's wallet application!"],
  pay_invoice_cancel: [400, 'Invoice is rejected'],
  email_not_specified: [400, 'Recipient email not specified.'],
  invalid_member_id: [400, 'Invalid member ID'],
  folder_children_exist: [400, 'The folder contains subfolders!'],
  specify_3_30: [400, 'Specify from 3 to 30 characters'],
  invalid_alias_member_id: [400, 'You can not create a 12-digit alias'],
  invalid_alias_purse: [400, 'You can not create an alias from a letter and 12 numbers'],
  invalid_email1: [400, 'Invalid email!'],
  invalid_member_id2: [400, 'Invalid member ID specified.'],
  alias_stoplist: [400, 'Cannot be created with given name'],
  filter_name_is_empty: [400, 'Please enter a filter name!'],
  translate_fail: [500, 'Failed to translate message'],
  invalid_port: [400, 'Incorrect port specified'],
  request_code_not_found: [400, 'Invalid verification code entered.'],
  max_limit_reached: [413, 'Max limit reached: {limit}Mb'],
  alias_access_limit: [429, 'Repeated request to change password'],
  invalid_email_for: [400, 'Invalid email for'],
  // SPEC §8, codes whose text is a translation key only
  confirmation_error: [400, 'Confirmation error'],
  message_not_found: [404, 'Message not found'],
  entity_not_found: [404, 'Not found'],
  internal_imap_error: [502, 'Mail server error'],
  err_provider_already_exists: [409, 'Mail from this address is already being collected'],
  err_invalid_id: [400, 'Invalid id'],
  err_invalid_email: [400, 'Invalid email'],
  forbidden: [403, 'Forbidden'],
  invalid_auth_cookie: [401, 'Invalid auth cookie'],
  expected_token: [401, 'Sign-in required'],
  incorrect_login_or_password: [401, 'Incorrect address or password'],
  invalid_login: [400, 'Invalid login'],
  mailbox_not_exist: [404, 'Mailbox does not exist'],
  duplicate_aliases: [409, 'This alias already exists'],
  max_count_aliases: [400, 'Maximum number of aliases reached'],
  user_not_found: [404, 'User not found'],
  user_create_error: [500, 'Could not create the user'],
  request_folder_id_error: [400, 'Invalid folder'],
  request_folder_not_found: [404, 'Folder not found'],
  folder_sent_not_found: [404, 'Sent folder not found'],
  folder_draft_not_found: [404, 'Drafts folder not found'],
  folder_trash_not_found: [404, 'Trash folder not found'],
  folder_already_exist: [409, 'A folder with this name already exists'],
  folder_parent_wrong: [400, 'Wrong parent folder'],
  folder_name_invalid: [
    400,
    'A folder name cannot contain dots, slashes or control characters, or be that long',
  ],
  profile_not_found: [404, 'Profile not found'],
  request_profile_id_error: [400, 'Invalid profile'],
  request_label_id_error: [400, 'Invalid label'],
  label_already_exist: [409, 'A label with this name already exists'],
  invalid_alias: [400, 'Invalid alias'],
  internal_error: [500, 'Internal error'],
  alias_has_no_at: [400, 'The address has no @'],
  invalid_request_params: [400, 'Invalid request parameters'],
  failed_validation_aliases_email: [400, 'Invalid alias address'],
  name_not_indicated: [400, "You didn't specify a name!"],
  failed_validation_email_address: [400, 'Invalid email address'],
  cannot_connect_to_mail_server: [502, 'Cannot connect to the mail server'],
  collector_invalid_password: [400, 'Invalid password for the mailbox'],
  cant_fetch_inbox: [502, 'Cannot fetch the inbox'],
  invalid_domain_for_mail_server: [400, 'Invalid domain for the mail server'],
  mail_server_not_found: [404, 'Mail server not found'],
  collector_invalid_email: [400, 'Invalid collector address'],
  collector_not_created: [500, 'Collector not created'],
  invalid_provider: [400, 'Invalid provider'],
  invalid_token: [401, 'Invalid token'],
  collector_not_found: [404, 'Collector not found'],
  auth_error: [401, 'Sign-in failed'],
  invalid_params: [400, 'Invalid parameters'],
  alias_not_found: [404, 'Alias not found'],
  alias_cant_delete: [400, 'The alias cannot be deleted'],
  duplicate_domains: [409, 'This domain already exists'],
  // ours
  not_found: [404, 'Not found'],
  too_many_requests: [429, 'Too many requests, try again later'],
  password_codes_locked: [
    429,
    'No more codes for the mailbox password today: the Security page says when you can ask again',
  ],
  csrf_failed: [403, 'Request refused: cross-site request'],
  request_entity_too_large: [413, 'Request Entity Too Large'],
  member_id_taken: [409, 'This member ID is already taken'],
  quota_exceeded: [413, 'The mailbox is full'],
  search_content_not_indicated: [400, "You didn't specify a search query!"],
  decrypt_failed: [403, 'Wrong password, or the message does not exist or has expired'],
  decrypt_locked: [423, 'Too many wrong passwords: this message is locked. Ask the sender to send it again'],
  encrypted_too_large: [413, 'An encrypted message may be at most 20 MB with its attachments'],
  invalid_header_value: [400, 'Line breaks and control characters are not allowed in'],
  image_unavailable: [502, 'The image could not be loaded'],
  sieve_syntax_error: [400, 'The filter has an error'],
  sieve_regex_too_long: [400, 'A regular expression in the filter is too long'],
  filters_changed: [409, 'The filters were changed in another window: reload them and try again'],
  filter_run_active: [409, 'A filter is already being applied to this folder'],
  group_already_exist: [409, 'A group with this name already exists'],
  contacts_file_unreadable: [400, 'The file is not a vCard or CSV file of contacts'],
  contacts_limit_reached: [409, 'The address book is full: delete some contacts first'],
  contact_groups_limit_reached: [409, 'There are as many groups as an address book may have'],
  contact_import_active: [409, 'A contacts import is already running: wait for it to finish'],
  import_file_unreadable: [400, 'The file is not an mbox, an .eml, or a .zip or .tar.gz of .eml files'],
  import_file_too_large: [
    413,
    'The file is larger than an import may be (50 GB, and no more than your mailbox quota)',
  ],
  import_uploads_limit_reached: [
    429,
    'Two uploads are already unfinished: finish or cancel one of them first',
  ],
  import_upload_incomplete: [409, 'The file has not been uploaded completely yet'],
  import_archive_too_large: [413, 'The archive unpacks to more than an import may hold'],
  import_archive_bomb: [400, 'The archive unpacks to far more than its size: it was not unpacked further'],
  sender_entry_invalid: [400, 'Enter an address (name@example.com) or a domain (example.com)'],
  sender_lists_full: [409, 'Your allow and block lists are full: remove some entries first'],
  passport_level_required: [403, 'This needs a passport of at least formal level in your wallet'],
  passwords_do_not_match: [400, 'The passwords do not match'],
  password_too_short: [400, 'The password must be at least 8 characters long'],
  password_too_long: [400, 'The password must be at most 128 characters long'],
  support_message_empty: [400, 'Write the subject and the text of your request'],
  wallet_unavailable: [503, 'The wallet is not answering; try again in a minute'],
  storage_unavailable: [503, 'The file storage is not answering; try again in a minute'],
  invalid_domain: [400, 'Enter a domain name such as example.com'],
  domain_hosted: [409, 'This domain belongs to the service'],
  domain_not_verified: [400, 'Verify the domain first'],
  delete_word_required: [400, 'Type the word delete to confirm'],
  delegate_self: [400, 'You cannot delegate an address to yourself'],
  collector_tls_failed: [502, "The mail server's secure connection could not be verified"],
  collector_server_forbidden: [400, 'This mail server is on a private network address'],
  collector_app_password_required: [
    400,
    'This provider needs an app password: create one in its account settings and enter it here',
  ],
  collector_oauth_required: [400, 'This provider lets mail programs in only through its own sign-in (OAuth)'],
  max_count_collectors: [400, 'Maximum number of collectors reached'],
  export_limit_reached: [429, 'Two exports of this mailbox are already running: wait for one to finish'],
  send_already_sent: [409, 'The message has already been sent'],
  time_out_of_range: [400, 'Pick a time in the future, at most a year ahead'],
  scheduled_limit_reached: [409, 'Too many messages are waiting to be sent: send or cancel some first'],
  scheduled_encrypted: [400, 'A password-encrypted message cannot be sent later: send it now'],
  forwarding_owner_only: [
    403,
    'Only the mailbox owner can set up forwarding, auto-replies and mail collectors',
  ],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof errorCatalogue;
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function errorStatus(code: ErrorCode): number {
  return errorCatalogue[code][0];
}

export function errorMessage(code: ErrorCode): string {
  return errorCatalogue[code][1];
}

/** The error body of every failed request (SPEC §3, §8): meta.code is the HTTP status, meta.i8s the catalogue code. */
export interface ApiErrorBody {
  error: { message: string; meta: { code: number; i8s: string } };
}

export function errorBody(code: ErrorCode, message: string = errorMessage(code)): ApiErrorBody {
  return { error: { message, meta: { code: errorStatus(code), i8s: code } } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCatalogue, value);
}
