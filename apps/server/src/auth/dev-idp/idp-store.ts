import type { Adapter, AdapterPayload } from 'oidc-provider';
import { sql } from 'kysely';
import type { Db } from '../../core/db/index.js';

/**
 * oidc-provider's storage on our database: one table keyed by model kind and id. Keeps the
 * development IdP's sessions and grants across restarts and between processes on one PostgreSQL.
 */
export function idpStore(db: Db): new (kind: string) => Adapter {
  return class IdpStore implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const values = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insertInto('idp_models')
        .values({ kind: this.kind, id, ...values })
        .onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(values))
        .execute();
    }

    private async findWhere(
      column: 'id' | 'uid' | 'user_code',
      value: string,
    ): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('idp_models')
        .select(['payload', 'consumed_at'])
        .where('kind', '=', this.kind)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumed_at
        ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) }
        : payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('idp_models')
        .set({ consumed_at: sql<Date>`now()` })
        .where('kind', '=', this.kind)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('idp_models').where('kind', '=', this.kind).where('id', '=', id).execute();
    }

    /**
     * oidc-provider calls this once per token model (AccessToken, AuthorizationCode, …): only this model's rows
     * go. An interaction carries the grant id too, and switching accounts revokes the old member's grant in the
     * middle of the new member's interaction, which must live on to finish.
     */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .deleteFrom('idp_models')
        .where('kind', '=', this.kind)
        .where('grant_id', '=', grantId)
        .execute();
    }
  };
}

export async function deleteExpiredIdpModels(db: Db): Promise<void> {
  await db.deleteFrom('idp_models').where('expires_at', '<=', new Date()).execute();
}
