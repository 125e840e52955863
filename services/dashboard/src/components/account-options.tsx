import type { ChannelAccount } from '../api/numbers';
import { phone } from './format';

/** The tenant's numbers as the options of a select: the API id as value, the display number as text. */
export function AccountOptions({ accounts }: { accounts: ChannelAccount[] | undefined }) {
  return (
    <>
      {accounts?.map((a) => (
        <option key={a.channel_account_id} value={a.channel_account_id}>
          {phone(a.display_phone_number)}
        </option>
      ))}
    </>
  );
}
