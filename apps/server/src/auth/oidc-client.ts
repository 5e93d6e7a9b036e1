import * as oidc from 'openid-client';
import { isMemberId, type PassportLevel } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';
import { parsePassportLevel } from '../accounts/index.js';

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Where the provider sends the browser after signing out (registered with it as a post-logout redirect URI). */
  postLogoutRedirectUri: string;
  memberIdClaim: string;
  /** The claim naming the member's passport level (OIDC_PASSPORT_LEVEL_CLAIM). */
  passportLevelClaim: string;
  scopes: string;
  /** For the embedded IdP: reach it in-process instead of over the network. */
  fetch?: oidc.CustomFetch;
}

export interface LoginFlow {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SignedInMember {
  memberId: string;
  name: string;
  /** The passport level the provider reports ('none' when it says nothing we know). */
  passportLevel: PassportLevel;
  /** Kept with the session for the provider's end_session_endpoint. */
  idToken: string | null;
}

/** The relying party side of single sign-on: authorization code flow with state, nonce and PKCE. */
export class OidcClient {
  #config: Promise<oidc.Configuration> | undefined;

  constructor(private readonly opts: OidcClientOptions) {}

  private config(): Promise<oidc.Configuration> {
    // Discovered lazily: the embedded IdP is not reachable until the server is up.
    this.#config ??= oidc
      .discovery(new URL(this.opts.issuer), this.opts.clientId, this.opts.clientSecret, undefined, {
        execute: new URL(this.opts.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        ...(this.opts.fetch ? { [oidc.customFetch]: this.opts.fetch } : {}),
      })
      .then((config) => {
        if (this.opts.fetch) config[oidc.customFetch] = this.opts.fetch;
        return config;
      })
      .catch((err: unknown) => {
        this.#config = undefined;
        throw err;
      });
    return this.#config;
  }

  /** `uiLocales`: the language the app shows (OpenID Connect ui_locales), for the provider's pages. */
  async startLogin(prompt?: 'login' | 'none', uiLocales?: string): Promise<LoginFlow> {
    const config = await this.config();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.opts.redirectUri,
      scope: this.opts.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(prompt ? { prompt } : {}),
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /** Completes the flow; refuses anything whose member ID claim is not 12 digits. */
  async finishLogin(callbackUrl: URL, flow: Omit<LoginFlow, 'url'>): Promise<SignedInMember> {
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new DomainError(
        'auth_error',
        err instanceof Error ? `Sign-in failed: ${err.message}` : undefined,
      );
    }
    const claims: Record<string, unknown> = { ...tokens.claims() };
    if (claims[this.opts.memberIdClaim] === undefined) {
      Object.assign(claims, await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub)));
    }
    const memberId = claims[this.opts.memberIdClaim];
    if (typeof memberId !== 'string' || !isMemberId(memberId)) throw new DomainError('invalid_member_id');
    const name = [claims.name, [claims.given_name, claims.family_name].filter(Boolean).join(' ')].find(
      (v): v is string => typeof v === 'string' && v.trim() !== '',
    );
    return {
      memberId,
      name: name?.trim() ?? '',
      passportLevel: parsePassportLevel(claims[this.opts.passportLevelClaim]),
      idToken: tokens.id_token ?? null,
    };
  }

  /**
   * RP-initiated logout: the provider's end_session_endpoint, which ends its session and sends the browser back to
   * the post-logout redirect URI. Undefined when the provider offers none (its session then outlives ours).
   */
  async endSessionUrl(idToken: string | null): Promise<string | undefined> {
    let config: oidc.Configuration;
    try {
      config = await this.config();
    } catch {
      // The provider is unreachable: our session has ended, which is what matters most.
      return undefined;
    }
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: this.opts.postLogoutRedirectUri,
      ...(idToken ? { id_token_hint: idToken } : {}),
    }).href;
  }
}
