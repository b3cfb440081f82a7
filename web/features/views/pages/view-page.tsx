import { useParams } from 'react-router';
import { ViewFrame } from './view-frame';

/** /views/{id} (spec §2). */
export default function ViewPage() {
  const { id = '' } = useParams();
  return <ViewFrame viewId={id} />;
}
