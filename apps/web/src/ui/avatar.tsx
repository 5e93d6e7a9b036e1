import { avatarColor, avatarInitials } from '@mailroom/protocol';
import styles from './avatar.module.css';

export interface AvatarProps {
  name?: string | null;
  email?: string | null;
  size?: number;
}

/** Two initials on a colour derived from the name or address (SPEC §9); decorative, the name is shown beside it. */
export function Avatar({ name, email, size = 32 }: AvatarProps) {
  const initials = avatarInitials(name, email);
  const background = avatarColor(name?.trim() || email || initials);
  return (
    <span
      className={styles.avatar}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.4), background }}
      aria-hidden
    >
      {initials}
    </span>
  );
}
