import { memberUrl } from '../../infra/readstore/mongodb-member-url';

describe('memberUrl', () => {
  it('names one member in place of the host list, directly connected, keeping credentials, database and options', () => {
    expect(memberUrl('mongodb://cms:s%40cret@a:27017,b:27017,c:27017/cms?replicaSet=rs0&authSource=admin&tls=true', 'b:27017')).toBe(
      'mongodb://cms:s%40cret@b:27017/cms?replicaSet=rs0&authSource=admin&tls=true&directConnection=true',
    );
  });

  it('replaces a directConnection option the URL has, whatever its case, and adds the path a URL without one needs', () => {
    expect(memberUrl('mongodb://a:27017/?replicaSet=rs0&DirectConnection=false', 'a:27017')).toBe('mongodb://a:27017/?replicaSet=rs0&directConnection=true');
    expect(memberUrl('mongodb://a,b', 'b:27018')).toBe('mongodb://b:27018/?directConnection=true');
  });

  it('cannot name a member of a mongodb+srv URL', () => {
    expect(memberUrl('mongodb+srv://cms:pw@cluster0.example.net/cms', 'a:27017')).toBeNull();
  });
});
