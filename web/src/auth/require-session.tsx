import { Navigate, useLocation } from 'react-router';
import { Failure, Loading } from '../ui/states';
import { Shell } from '../ui/shell';
import { useSession } from './session';

/** Signed-in screens only: without a session, sign-in first, keeping the wanted path. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (session.isError) return <Failure error={session.error} onRetry={() => void session.refetch()} />;
  if (session.data === null) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Shell user={session.data.user} />;
}
