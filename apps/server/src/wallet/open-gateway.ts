import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import type { WalletGateway } from './gateway.js';
import { HttpWalletGateway } from './http-gateway.js';
import { SandboxWalletGateway } from './sandbox-gateway.js';

/**
 * The deployment's wallet: the provider's API when WALLET_API_URL is set (its key is then required, config.ts), else
 * the embedded sandbox wallet (the default: `npm start` needs nothing).
 */
export function openWalletGateway(config: Config, db: Db): WalletGateway {
  const { apiUrl, apiKey } = config.wallet;
  if (apiUrl && apiKey) return new HttpWalletGateway({ apiUrl, apiKey });
  return new SandboxWalletGateway(db, config.publicUrl);
}
